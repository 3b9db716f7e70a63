// The tokenizer facts Quarry copies from Meilisearch's tokenizer, charabia (v0.9/0.10 defaults,
// the `charabia/default` feature set that Meilisearch builds with). Read by generate.mjs, which
// turns them into the kernel's static tables and the reference's data module.
// Sources (github.com/meilisearch/charabia):
//   charabia/src/separators.rs                    DEFAULT_SEPARATORS, CONTEXT_SEPARATORS
//   charabia/src/detection/chars.rs               per-character script ranges
//   charabia/src/detection/script_language.rs     Script::from(char): the order the ranges are tried in
//   charabia/src/normalizer/character_converter.rs  the per-character conversions (œ, æ, ’, ı, đ, Arabic)
//   charabia/src/normalizer/nonspacing_mark.rs    which scripts lose their nonspacing marks
//   dictionaries/txt/chinese/kVariants.tsv          ChineseNormalizer's ideograph variants (kvariants.txt)
// Strings are written as in the Rust source (Rust and JS escapes agree for these literals).
// Characters that Unicode normalises away as canonical singletons are re-added with \u escapes
// below, because copying the literal glyph may silently turn U+037E into ';'.

// Every string the tokenizer cuts on. Matched leftmost-longest, so ". " wins over ".".
export const DEFAULT_SEPARATORS = [
  "\0", ". ", ", ", "_", "‿", "⁀", "⁔", "︳", "︴", "﹍", "﹎", "﹏", "＿", "-", "֊", "־", "᐀", "᠆", "‐", "‒", "–",
  "—", "―", "⸗", "⸚", "⸺", "⸻", "⹀", "〜", "〰", "゠", "︱", "︲", "﹘", "﹣", "－", "𐺭", ")",
  "]", "}", "༻", "༽", "᚜", "⁆", "⁾", "₎", "⌉", "⌋", "〉", "❩", "❫", "❭", "❯", "❱", "❳", "❵", "⟆",
  "⟧", "⟩", "⟫", "⟭", "⟯", "⦄", "⦆", "⦈", "⦊", "⦌", "⦎", "⦐", "⦒", "⦔", "⦖", "⦘", "⧙", "⧛", "⧽",
  "⸣", "⸥", "⸧", "⸩", "〉", "》", "」", "』", "】", "〕", "〗", "〙", "〛", "〞", "〟", "﴾",
  "︘", "︶", "︸", "︺", "︼", "︾", "﹀", "﹂", "﹄", "﹈", "﹚", "﹜", "﹞", "）", "］", "｝",
  "｠", "｣", "»", "’", "”", "›", "⸃", "⸅", "⸊", "⸍", "⸝", "⸡", "«", "‘", "‛", "“", "‟", "‹", "⸂",
  "⸄", "⸉", "⸌", "⸜", "⸠", "(", "[", "{", "༺", "༼", "᚛", "‚", "„", "⁅", "⁽", "₍", "⌈", "⌊", "〈",
  "❨", "❪", "❬", "❮", "❰", "❲", "❴", "⟅", "⟦", "⟨", "⟪", "⟬", "⟮", "⦃", "⦅", "⦇", "⦉", "⦋", "⦍",
  "⦏", "⦑", "⦓", "⦕", "⦗", "⧘", "⧚", "⧼", "⸢", "⸤", "⸦", "⸨", "⹂", "〈", "《", "「", "『", "【",
  "〔", "〖", "〘", "〚", "〝", "﴿", "︗", "︵", "︷", "︹", "︻", "︽", "︿", "﹁", "﹃", "﹇",
  "﹙", "﹛", "﹝", "（", "［", "｛", "｟", "｢", "!", "\"", "#", "%", "&", "'", "*", ",", ".",
  "/", ":", ";", "?", "@", "\\", "¡", "§", "¶", "·", "¿", ";", "·", "՚", "՛", "՜", "՝", "՞", "՟",
  "։", "׀", "׃", "׆", "׳", "״", "؉", "؊", "،", "؍", "؛", "؞", "؟", "٪", "٭", "۔", "܀", "܁", "܂",
  "܃", "܄", "܅", "܆", "܇", "܈", "܉", "܊", "܋", "܌", "܍", "߷", "߸", "߹", "࠰", "࠱", "࠲", "࠳", "࠴",
  "࠵", "࠶", "࠷", "࠸", "࠹", "࠺", "࠻", "࠼", "࠽", "࠾", "࡞", "।", "॥", "॰", "৽", "੶", "૰", "౷", "಄",
  "෴", "๏", "๚", "๛", "༄", "༅", "༆", "༇", "༈", "༉", "༊", "་", "།", "༎", "༏", "༐", "༑", "༒", "༔",
  "྅", "࿐", "࿑", "࿒", "࿓", "࿔", "࿙", "࿚", "၊", "။", "၌", "၍", "၎", "၏", "჻", "፠", "፡", "።", "፣",
  "፤", "፥", "፦", "፧", "፨", "᙮", "᛫", "᛬", "᛭", "᜵", "᜶", "។ល។", "។", "៕", "៖", "៘", "៙", "៚", "᠀", "᠁",
  "᠂", "᠃", "᠄", "᠅", "᠇", "᠈", "᠉", "᠊", "᥄", "᥅", "᨞", "᨟", "᪠", "᪡", "᪢", "᪣", "᪤", "᪥", "᪦",
  "᪨", "᪩", "᪪", "᪫", "᪬", "᪭", "᭚", "᭛", "᭜", "᭝", "᭞", "᭟", "᭠", "᯼", "᯽", "᯾", "᯿", "᰻", "᰼",
  "᰽", "᰾", "᰿", "᱾", "᱿", "᳀", "᳁", "᳂", "᳃", "᳄", "᳅", "᳆", "᳇", "᳓", "‖", "‗", "†", "‡", "•",
  "‣", "․", "‥", "…", "‧", "‰", "‱", "′", "″", "‴", "‵", "‶", "‷", "‸", "※", "‼", "‽", "‾", "⁁",
  "⁂", "⁃", "⁇", "⁈", "⁉", "⁊", "⁋", "⁌", "⁍", "⁎", "⁏", "⁐", "⁑", "⁓", "⁕", "⁖", "⁗", "⁘", "⁙",
  "⁚", "⁛", "⁜", "⁝", "⁞", "⳹", "⳺", "⳻", "⳼", "⳾", "⳿", "⵰", "⸀", "⸁", "⸆", "⸇", "⸈", "⸋", "⸎",
  "⸏", "⸐", "⸑", "⸒", "⸓", "⸔", "⸕", "⸖", "⸘", "⸙", "⸛", "⸞", "⸟", "⸪", "⸫", "⸬", "⸭", "⸮", "⸰",
  "⸱", "⸲", "⸳", "⸴", "⸵", "⸶", "⸷", "⸸", "⸹", "⸼", "⸽", "⸾", "⸿", "⹁", "⹃", "⹄", "⹅", "⹆", "⹇",
  "⹈", "⹉", "⹊", "⹋", "⹌", "⹍", "⹎", "⹏", "⹒", "、", "。", "〃", "〽", "・", "꓾", "꓿", "꘍", "꘎",
  "꘏", "꙳", "꙾", "꛲", "꛳", "꛴", "꛵", "꛶", "꛷", "꡴", "꡵", "꡶", "꡷", "꣎", "꣏", "꣸", "꣹", "꣺", "꣼",
  "꤮", "꤯", "꥟", "꧁", "꧂", "꧃", "꧄", "꧅", "꧆", "꧇", "꧈", "꧉", "꧊", "꧋", "꧌", "꧍", "꧞", "꧟", "꩜",
  "꩝", "꩞", "꩟", "꫞", "꫟", "꫰", "꫱", "꯫", "︐", "︑", "︒", "︓", "︔", "︕", "︖", "︙", "︰",
  "﹅", "﹆", "﹉", "﹊", "﹋", "﹌", "﹐", "﹑", "﹒", "﹔", "﹕", "﹖", "﹗", "﹟", "﹠", "﹡",
  "﹨", "﹪", "﹫", "！", "＂", "＃", "％", "＆", "＇", "＊", "，", "．", "／", "：", "；", "？",
  "＠", "＼", "｡", "､", "･", "𐄀", "𐄁", "𐄂", "𐎟", "𐏐", "𐕯", "𐡗", "𐤟", "𐤿", "𐩐", "𐩑", "𐩒", "𐩓",
  "𐩔", "𐩕", "𐩖", "𐩗", "𐩘", "𐩿", "𐫰", "𐫱", "𐫲", "𐫳", "𐫴", "𐫵", "𐫶", "𐬹", "𐬺", "𐬻", "𐬼", "𐬽", "𐬾",
  "𐬿", "𐮙", "𐮚", "𐮛", "𐮜", "𐽕", "𐽖", "𐽗", "𐽘", "𐽙", "𑁇", "𑁈", "𑁉", "𑁊", "𑁋", "𑁌", "𑁍", "𑂻", "𑂼",
  "𑂾", "𑂿", "𑃀", "𑃁", "𑅀", "𑅁", "𑅂", "𑅃", "𑅴", "𑅵", "𑇅", "𑇆", "𑇇", "𑇈", "𑇍", "𑇛", "𑇝", "𑇞", "𑇟",
  "𑈸", "𑈹", "𑈺", "𑈻", "𑈼", "𑈽", "𑊩", "𑑋", "𑑌", "𑑍", "𑑎", "𑑏", "𑑚", "𑑛", "𑑝", "𑓆", "𑗁", "𑗂", "𑗃",
  "𑗄", "𑗅", "𑗆", "𑗇", "𑗈", "𑗉", "𑗊", "𑗋", "𑗌", "𑗍", "𑗎", "𑗏", "𑗐", "𑗑", "𑗒", "𑗓", "𑗔", "𑗕", "𑗖",
  "𑗗", "𑙁", "𑙂", "𑙃", "𑙠", "𑙡", "𑙢", "𑙣", "𑙤", "𑙥", "𑙦", "𑙧", "𑙨", "𑙩", "𑙪", "𑙫", "𑙬", "𑜼", "𑜽",
  "𑜾", "𑠻", "𑥄", "𑥅", "𑥆", "𑧢", "𑨿", "𑩀", "𑩁", "𑩂", "𑩃", "𑩄", "𑩅", "𑩆", "𑪚", "𑪛", "𑪜", "𑪞", "𑪟",
  "𑪠", "𑪡", "𑪢", "𑱁", "𑱂", "𑱃", "𑱄", "𑱅", "𑱰", "𑱱", "𑻷", "𑻸", "𑿿", "𒑰", "𒑱", "𒑲", "𒑳", "𒑴", "𖩮",
  "𖩯", "𖫵", "𖬷", "𖬸", "𖬹", "𖬺", "𖬻", "𖭄", "𖺗", "𖺘", "𖺙", "𖺚", "𖿢", "𛲟", "𝪇", "𝪈", "𝪉", "𝪊", "𝪋",
  "𞥞", "𞥟", "\n", "\r", "\u{2029}",
  // The space separators. separators.rs lists 13 of them plus U+3000; the three no-break spaces
  // (U+00A0, U+2007, U+202F) are left out on purpose (charabia issue #38: "3 456 678" is one number).
  " ", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}", "\u{2004}", "\u{2005}", "\u{2006}",
  "\u{2008}", "\u{2009}", "\u{200A}", "\u{205F}", "\u{3000}",
  "`", "\t", "+", "-", "±", "×", "÷", "\u{2212}",
  // The canonical singletons of the list above, spelled out (see the header).
  "\u{037E}", "\u{0387}", "\u{2329}", "\u{232A}",
];

// Sm "Math Symbol" block U+2213..U+22FF as listed in separators.rs, which skips U+2226 and U+228E.
for (let cp = 0x2213; cp <= 0x22ff; cp++) {
  if (cp !== 0x2226 && cp !== 0x228e) DEFAULT_SEPARATORS.push(String.fromCodePoint(cp));
}

// Separators that end a phrase ("hard"); every other separator is "soft". Membership is tested on
// the token's lemma AFTER compatibility decomposition, so "．" (lemma ".") is soft and "…" (lemma
// "...", not a separator at all) becomes a word.
export const CONTEXT_SEPARATORS = [
  "\0", "᠆", "᚛", "᚜",
  "!", ". ", ", ", ";", "?", "¡", "§", "¶", "¿", "\u{037E}",
  "՜", "´", "՝", "՞", "։", "׃", "،", "؛", "؟", "۔", "܀", "܁", "܂",
  "܃", "܄", "܅", "܆", "܇", "܈", "܉", "߷", "߸", "߹",
  "࠰", "࠱", "࠲", "࠳", "࠴", "࠵", "࠸", "࠹", "࠺", "࠻", "࠼", "࠽", "࠾", "࡞", "।", "॥", "෴", "๚", "๛",
  "༄", "༅", "༆", "༇", "༈", "༉", "༊", "།", "༎", "༏", "༐", "༑", "༒", "༔", "࿐", "࿑", "࿒", "࿓", "࿔",
  "၊", "။", "჻", "።", "፣", "፤", "፥", "፦", "፧", "፨", "᛫", "᛬", "᛭", "᜵", "᜶",
  "។", "៕", "៖", "៘", "។ល។", "៚", "᠀", "᠁", "᠂", "᠃", "᠄", "᠅", "᠈", "᠉", "᥄", "᥅", "᨟",
  "᪨", "᪩", "᪪", "᪫", "᪬", "᪭", "᭚", "᭛", "᭜", "᭝", "᭞", "᭟", "᭠", "᯼", "᯽", "᯾", "᯿",
  "᰻", "᰼", "᰽", "᰾", "᰿", "᱾", "᱿", "᳀", "᳁", "᳂", "᳃", "᳄", "᳅", "᳆", "᳇",
  "․", "‥", "…", "※", "‼", "‽", "⁇", "⁈", "⁉", "⁏", "⁖", "⁚", "⳹", "⳺", "⳻", "⳼", "⳾", "⸘", "⸮", "⹁",
  "、", "。", "꓾", "꓿", "꘍", "꘎", "꘏", "꛲", "꛳", "꛴", "꛵", "꛶", "꛷", "꡶", "꡷", "꣎", "꣏", "꤯", "꥟",
  "꧃", "꧄", "꧅", "꧆", "꧇", "꧈", "꧉", "꧊", "꧋", "꧌", "꧍", "꩜", "꩝", "꩞", "꩟", "꫟", "꫰", "꫱", "꯫",
  "︐", "︑", "︒", "︓", "︔", "︕", "︖", "︙", "︰", "﹅", "﹐", "﹑", "﹒", "﹔", "﹕", "﹖", "﹗",
  "！", "，", "．", "：", "；", "？", "｡", "､",
  "𐡗", "𐩐", "𐩑", "𐩒", "𐩓", "𐩔", "𐩕", "𐩖", "𐩗", "𐩘", "𐫰", "𐫱", "𐫲", "𐫳", "𐫴", "𐫵",
  "𐬺", "𐬻", "𐬼", "𐬽", "𐬾", "𐬿", "𐮙", "𐮚", "𐮛", "𐮜", "𐽕", "𐽖", "𐽗", "𐽘", "𐽙",
  "𑁇", "𑁈", "𑁉", "𑁊", "𑁋", "𑁌", "𑁍", "𑂾", "𑂿", "𑃀", "𑃁", "𑅀", "𑅁", "𑅂", "𑅃", "𑅵",
  "𑇅", "𑇆", "𑇍", "𑇞", "𑇟", "𑈸", "𑈹", "𑈻", "𑈼", "𑊩", "𑑋", "𑑌", "𑑍", "𑑚",
  "𑗂", "𑗃", "𑗉", "𑗊", "𑗋", "𑗌", "𑗍", "𑗎", "𑗏", "𑗐", "𑗑", "𑗒", "𑗓", "𑗔", "𑗕", "𑗖", "𑗗",
  "𑙁", "𑙂", "𑙠", "𑙡", "𑙢", "𑙣", "𑙤", "𑙥", "𑙦", "𑙧", "𑙨", "𑙩", "𑙪", "𑙫", "𑙬", "𑜼", "𑜽", "𑜾",
  "𑥄", "𑥆", "𑨿", "𑩀", "𑩁", "𑩂", "𑩃", "𑩄", "𑩅", "𑩆", "𑪚", "𑪛", "𑪜", "𑪞", "𑪟", "𑪠", "𑪡", "𑪢",
  "𑱁", "𑱂", "𑱰", "𑱱", "𑻷", "𑻸", "𑿿", "𒑱", "𒑲", "𒑳", "𒑴", "𖩮", "𖩯", "𖫵", "𖬷", "𖬸", "𖬹", "𖭄",
  "𖺗", "𖺘", "𖺙", "𖺚", "𛲟", "𝪇", "𝪈", "𝪉", "𝪊", "𞥞", "𞥟",
];

// Script ids, in Script::from(char) priority order; 0 is Script::Other (no split, no script).
export const SCRIPTS = [
  "Other", "Latin", "Cyrillic", "Arabic", "Devanagari", "Hebrew", "Ethiopic", "Georgian", "Bengali",
  "Hangul", "Cj", "Greek", "Kannada", "Tamil", "Thai", "Gujarati", "Gurmukhi", "Telugu", "Malayalam",
  "Oriya", "Myanmar", "Sinhala", "Khmer",
];

// [first, last, script] ranges, tried in this order (the first hit wins, as in Script::from).
export const SCRIPT_RANGES = [
  [0x61, 0x7a, "Latin"], [0x41, 0x5a, "Latin"], [0x80, 0xff, "Latin"], [0x100, 0x17f, "Latin"],
  [0x180, 0x24f, "Latin"], [0x250, 0x2af, "Latin"], [0x1d00, 0x1d7f, "Latin"], [0x1d80, 0x1dbf, "Latin"],
  [0x1e00, 0x1eff, "Latin"], [0x2100, 0x214f, "Latin"], [0x2c60, 0x2c7f, "Latin"], [0xa720, 0xa7ff, "Latin"],
  [0xab30, 0xab6f, "Latin"], [0xff01, 0xff5e, "Latin"],
  [0x400, 0x484, "Cyrillic"], [0x487, 0x52f, "Cyrillic"], [0x2de0, 0x2dff, "Cyrillic"],
  [0xa640, 0xa69d, "Cyrillic"], [0x1d2b, 0x1d2b, "Cyrillic"], [0x1d78, 0x1d78, "Cyrillic"],
  [0xa69f, 0xa69f, "Cyrillic"],
  [0x600, 0x6ff, "Arabic"], [0x750, 0x7ff, "Arabic"], [0x8a0, 0x8ff, "Arabic"], [0xfb50, 0xfdff, "Arabic"],
  [0xfe70, 0xfeff, "Arabic"], [0x10e60, 0x10e7f, "Arabic"], [0x1ee00, 0x1eeff, "Arabic"],
  [0x900, 0x97f, "Devanagari"], [0xa8e0, 0xa8ff, "Devanagari"], [0x1cd0, 0x1cff, "Devanagari"],
  [0x590, 0x5ff, "Hebrew"],
  [0x1200, 0x139f, "Ethiopic"], [0x2d80, 0x2ddf, "Ethiopic"], [0xab00, 0xab2f, "Ethiopic"],
  [0x10a0, 0x10ff, "Georgian"],
  [0x980, 0x9ff, "Bengali"],
  [0xac00, 0xd7af, "Hangul"], [0x1100, 0x11ff, "Hangul"], [0x3130, 0x318f, "Hangul"],
  [0x3200, 0x32ff, "Hangul"], [0xa960, 0xa97f, "Hangul"], [0xd7b0, 0xd7ff, "Hangul"],
  [0xffa0, 0xffdc, "Hangul"],
  [0x3040, 0x309f, "Cj"], [0x30a0, 0x30ff, "Cj"], [0xff65, 0xff9f, "Cj"],
  [0x2e80, 0x2e99, "Cj"], [0x2e9b, 0x2ef3, "Cj"], [0x2f00, 0x2fd5, "Cj"], [0x3005, 0x3005, "Cj"],
  [0x3007, 0x3007, "Cj"], [0x3021, 0x3029, "Cj"], [0x3038, 0x303b, "Cj"], [0x3400, 0x4db5, "Cj"],
  [0x4e00, 0x9fcc, "Cj"], [0xf900, 0xfa6d, "Cj"], [0xfa70, 0xfad9, "Cj"],
  [0x370, 0x3ff, "Greek"],
  [0xc80, 0xcff, "Kannada"],
  [0xb80, 0xbff, "Tamil"],
  [0xe00, 0xe7f, "Thai"],
  [0xa80, 0xaff, "Gujarati"],
  [0xa00, 0xa7f, "Gurmukhi"],
  [0xc00, 0xc7f, "Telugu"],
  [0xd00, 0xd7f, "Malayalam"],
  [0xb00, 0xb7f, "Oriya"],
  [0x1000, 0x109f, "Myanmar"],
  [0xd80, 0xdff, "Sinhala"],
  [0x1780, 0x17ff, "Khmer"], [0x19e0, 0x19ff, "Khmer"],
];

// NonspacingMarkNormalizer only runs on tokens of these scripts.
export const MARK_REMOVING_SCRIPTS = ["Hebrew", "Thai", "Arabic", "Latin", "Greek"];

// CharacterConverterNormalizer, applied to each lowercased character ("" removes it), with the
// default `turkish` and `vietnamese` features on.
export const CHARACTER_CONVERSIONS = {
  "œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae",
  "\u{0640}": "", "\u{0671}": "\u{0627}", "\u{0649}": "\u{064A}", "\u{0629}": "\u{0647}",
  "\u{2019}": "'", "\u{2018}": "'", "\u{201B}": "'",
  "ı": "i",
  "Ð": "d", "Đ": "d", "đ": "d", "ð": "d",
};

// milli's extract/searchable/tokenize_document.rs: a word after a hard separator is this much
// further away than the 1 that follows a soft separator or another word.
export const HARD_SEPARATOR_DISTANCE = 8;

// whatlang (charabia's language detector) takes a text's script by counting its characters per
// script and keeping the most frequent (each script apart: Hiragana, Katakana and its Mandarin,
// these ranges), then calls Mandarin text Cmn and kana text Jpn; only Cmn text gets
// ChineseNormalizer. Among equal counts the kana script wins (it comes later in whatlang's
// counter table, and the last maximum is kept).
export const WHATLANG_MANDARIN_RANGES = [
  [0x2e80, 0x2e99], [0x2e9b, 0x2ef3], [0x2f00, 0x2fd5], [0x3005, 0x3005], [0x3007, 0x3007], [0x3021, 0x3029],
  [0x3038, 0x303b], [0x3400, 0x4db5], [0x4e00, 0x9fcc], [0xf900, 0xfa6d], [0xfa70, 0xfad9],
];
export const HIRAGANA_RANGE = [0x3040, 0x309f];
export const KATAKANA_RANGE = [0x30a0, 0x30ff];
