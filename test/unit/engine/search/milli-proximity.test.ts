// milli's proximity rule tests (crates/milli/src/search/new/tests/proximity.rs at v1.50.0) over
// Quarry's engine: the same documents and queries, the orders and proximity ranks of v1.50's
// snapshots. Phrase-like terms (split words, quoted phrases, multi-word synonyms) pair through
// their first and last words anywhere in a document holding the phrase, forward only; a common
// prefix (≤ 4 bytes, ≥ 100 words) counts only the words it starts after the left term at 1–3,
// and reversed order only through the prefix as a word. An n-gram (`quickbrown`) costs n − 1 more
// on its edge.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

/** Ids (numbers) and proximity ranks as `rank/max` of a search matching every term. */
function ranked(q: string): { ids: number[]; proximity: string[] } {
  const store = new DocumentStore(index.env);
  const hits = index.search(q, { matchingStrategy: 'all' }).hits;
  return {
    ids: hits.map((hit) => Number(store.byDocid(hit.docid)!.id)),
    proximity: hits.map((hit) => {
      const detail = hit.details.find((d) => d.kind === 'proximity');
      return detail?.kind === 'proximity' ? `${detail.rank}/${detail.max}` : 'none';
    }),
  };
}

const SETTINGS = { searchableAttributes: ['text'], rankingRules: ['words', 'proximity'] };

/** "s" and "win" start more than 100 words each (documents 0 and 14): v1.50 keeps them in its prefix proximity database. */
const S_WORDS = [
  'saa sab sac sae saf sag sah sai saj sak sal sam san sao sap saq sar sasa sat sau sav saw sax say saz',
  'sba sbb sbc sbe sbf sbg sbh sbi sbj sbk sbl sbm sbn sbo sbp sbq sbr sbsb sbt sbu sbv sbw sbx sby sbz',
  'sca scb scc sce scf scg sch sci scj sck scl scm scn sco scp scq scr scsc sct scu scv scw scx scy scz',
  'sda sdb sdc sde sdf sdg sdh sdi sdj sdk sdl sdm sdn sdo sdp sdq sdr sdsd sdt sdu sdv sdw sdx sdy sdz',
  'sea seb sec see sef seg seh sei sej sek sel sem sen seo sep seq ser sese set seu sev sew sex sey sez',
  'sfa sfb sfc sfe sff sfg sfh sfi sfj sfk sfl sfm sfn sfo sfp sfq sfr sfsf sft sfu sfv sfw sfx sfy sfz',
  'sga sgb sgc sge sgf sgg sgh sgi sgj sgk sgl sgm sgn sgo sgp sgq sgr sgsg sgt sgu sgv sgw sgx sgy sgz',
  'ska skb skc ske skf skg skh ski skj skk skl skm skn sko skp skq skr sksk skt sku skv skw skx sky skz',
  'sla slb slc sle slf slg slh sli slj slk sll slm sln slo slp slq slr slsl slt slu slv slw slx sly slz',
  'sma smb smc sme smf smg smh smi smj smk sml smm smn smo smp smq smr smsm smt smu smv smw smx smy smz',
  'sna snb snc sne snf sng snh sni snj snk snl snm snn sno snp snq snr snsn snt snu snv snw snx sny snz',
  'soa sob soc soe sof sog soh soi soj sok sol som son soo sop soq sor soso sot sou sov sow sox soy soz',
  'spa spb spc spe spf spg sph spi spj spk spl spm spn spo spp spq spr spsp spt spu spv spw spx spy spz',
  'sqa sqb sqc sqe sqf sqg sqh sqi sqj sqk sql sqm sqn sqo sqp sqq sqr sqsq sqt squ sqv sqw sqx sqy sqz',
  'sra srb src sre srf srg srh sri srj srk srl srm srn sro srp srq srr srsr srt sru srv srw srx sry srz',
  'ssa ssb ssc sse ssf ssg ssh ssi ssj ssk ssl ssm ssn sso ssp ssq ssr ssss sst ssu ssv ssw ssx ssy ssz',
  'sta stb stc ste stf stg sth sti stj stk stl stm stn sto stp stq str stst stt stu stv stw stx sty stz',
].join('\n');
const WIN_WORDS = [
  'winaa winab winac winae winaf winag winah winai winaj winak winal winam winan winao winap winaq winar winasa winat winau winav winaw winax winay winaz',
  'winba winbb winbc winbe winbf winbg winbh winbi winbj winbk winbl winbm winbn winbo winbp winbq winbr winbsb winbt winbu winbv winbw winbx winby winbz',
  'winca wincb wincc wince wincf wincg winch winci wincj winck wincl wincm wincn winco wincp wincq wincr wincsc winct wincu wincv wincw wincx wincy wincz',
  'winda windb windc winde windf windg windh windi windj windk windl windm windn windo windp windq windr windsd windt windu windv windw windx windy windz',
  'winea wineb winec winee winef wineg wineh winei winej winek winel winem winen wineo winep wineq winer winese winet wineu winev winew winex winey winez',
  'winfa winfb winfc winfe winff winfg winfh winfi winfj winfk winfl winfm winfn winfo winfp winfq winfr winfsf winft winfu winfv winfw winfx winfy winfz',
  'winga wingb wingc winge wingf wingg wingh wingi wingj wingk wingl wingm wingn wingo wingp wingq wingr wingsg wingt wingu wingv wingw wingx wingy wingz',
  'winka winkb winkc winke winkf winkg winkh winki winkj winkk winkl winkm winkn winko winkp winkq winkr winksk winkt winku winkv winkw winkx winky winkz',
  'winla winlb winlc winle winlf winlg winlh winli winlj winlk winll winlm winln winlo winlp winlq winlr winlsl winlt winlu winlv winlw winlx winly winlz',
  'winma winmb winmc winme winmf winmg winmh winmi winmj winmk winml winmm winmn winmo winmp winmq winmr winmsm winmt winmu winmv winmw winmx winmy winmz',
  'winna winnb winnc winne winnf winng winnh winni winnj winnk winnl winnm winnn winno winnp winnq winnr winnsn winnt winnu winnv winnw winnx winny winnz',
  'winoa winob winoc winoe winof winog winoh winoi winoj winok winol winom winon winoo winop winoq winor winoso winot winou winov winow winox winoy winoz',
  'winpa winpb winpc winpe winpf winpg winph winpi winpj winpk winpl winpm winpn winpo winpp winpq winpr winpsp winpt winpu winpv winpw winpx winpy winpz',
  'winqa winqb winqc winqe winqf winqg winqh winqi winqj winqk winql winqm winqn winqo winqp winqq winqr winqsq winqt winqu winqv winqw winqx winqy winqz',
  'winra winrb winrc winre winrf winrg winrh winri winrj winrk winrl winrm winrn winro winrp winrq winrr winrsr winrt winru winrv winrw winrx winry winrz',
  'winsa winsb winsc winse winsf winsg winsh winsi winsj winsk winsl winsm winsn winso winsp winsq winsr winsss winst winsu winsv winsw winsx winsy winsz',
  'winta wintb wintc winte wintf wintg winth winti wintj wintk wintl wintm wintn winto wintp wintq wintr wintst wintt wintu wintv wintw wintx winty wintz',
].join('\n');

function openEdgeCasesIndex(): TestIndex {
  const edge = openTestIndex(SETTINGS);
  edge.write({
    0: { id: 0, text: S_WORDS },
    1: { id: 1, text: 'Sun Flower sounds like the title of a painting, maybe about a plant wilting under the heat.' },
    2: { id: 2, text: 'Sun Flower sounds like the title of a painting, maybe about a flower wilting under the heat.' },
    3: { id: 3, text: 'A flower wilting under the sun, unlike a sunflower' },
    4: { id: 4, text: 'sun flower wilting under the heat' },
    5: { id: 5, text: 'sunflower wilting under the heat' },
    6: { id: 6, text: 'this is the best meal I have ever had in such a beautiful summer day' },
    7: { id: 7, text: 'this is the best cooked meal of the summer' },
    8: { id: 8, text: 'this is the best meal of the summer' },
    9: { id: 9, text: 'this is the best meal of summer' },
    10: { id: 10, text: 'this is the best summer meal' },
    11: { id: 11, text: 'summer x y best' },
    12: { id: 12, text: 'summer x best' },
    13: { id: 13, text: 'summer best' },
    14: { id: 14, text: WIN_WORDS },
    15: { id: 15, text: 'this is the best meal I have ever had in such a beautiful winter day' },
    16: { id: 16, text: 'this is the best cooked meal of the winter' },
    17: { id: 17, text: 'this is the best meal of the winter' },
    18: { id: 18, text: 'this is the best meal of winter' },
    19: { id: 19, text: 'this is the best winter meal' },
    20: { id: 20, text: 'winter x y best' },
    21: { id: 21, text: 'winter x best' },
    22: { id: 22, text: 'winter best' },
  });
  return edge;
}

function openSimpleIndex(): TestIndex {
  const simple = openTestIndex(SETTINGS);
  simple.write({
    0: { id: 0, text: 'the very quick dark brown and smart fox did jump over the terribly lazy and small dog' },
    1: { id: 1, text: 'the. quick brown fox jumps over the lazy. dog' },
    2: { id: 2, text: 'the quick brown fox jumps over the lazy. dog' },
    3: { id: 3, text: 'dog the quick brown fox jumps over the lazy' },
    4: { id: 4, text: 'the quickbrown fox jumps over the lazy dog' },
    5: { id: 5, text: 'brown quick fox jumps over the lazy dog' },
    6: { id: 6, text: 'the really quick brown fox jumps over the very lazy dog' },
    7: { id: 7, text: 'the really quick brown fox jumps over the lazy dog' },
    8: { id: 8, text: 'the quick brown fox jumps over the lazy' },
    // milli's data adds document 9 twice: the second replaces the first
    9: { id: 9, text: 'the quack brown fox jumps over the lazy dog' },
    10: { id: 10, text: 'the quick brown fox jumps over the lazy dog' },
  });
  return simple;
}

describe('milli proximity.rs', () => {
  it('test_proximity_simple: words in order and adjacent first, an n-gram (quickbrown) costing one more on its edge, a hard separator breaking nothing but distance', () => {
    index = openSimpleIndex();
    expect(ranked('the quick brown fox jumps over the lazy dog').ids).toEqual([9, 10, 4, 7, 6, 2, 3, 5, 1, 0]);
  });

  it('test_proximity_split_word: a split word, a quoted phrase and a multi-word synonym pair their last word with the next term anywhere in a document holding the phrase', () => {
    index = openEdgeCasesIndex();
    expect(ranked('sunflower wilting')).toEqual({ ids: [2, 4, 5, 1, 3], proximity: ['4/4', '4/4', '4/4', '1/4', '1/4'] });
    expect(ranked('"sun flower" wilting')).toEqual({ ids: [2, 4, 1], proximity: ['4/4', '4/4', '1/4'] });
    index.reconfigure({ synonyms: { xyz: ['sun flower'] } });
    expect(ranked('xyz wilting')).toEqual({ ids: [2, 4, 1], proximity: ['4/4', '4/4', '1/4'] });
  });

  it('test_proximity_prefix_db: a common prefix counts only the words it starts after the left term at 1 to 3, reversed order only through the prefix as a word', () => {
    index = openEdgeCasesIndex();
    const common = ['4/4', '2/4', '1/4', '1/4', '1/4', '1/4', '1/4', '1/4'];
    expect(ranked('best s')).toEqual({ ids: [10, 9, 6, 7, 8, 11, 12, 13, 15], proximity: [...common, '1/4'] });
    // `su` starts fewer than 100 words: exact proximity, reversed order included
    expect(ranked('best su')).toEqual({ ids: [10, 13, 9, 12, 6, 7, 8, 11, 15], proximity: ['4/4', '3/4', '2/4', '2/4', '1/4', '1/4', '1/4', '1/4', '1/4'] });
    expect(ranked('best win')).toEqual({ ids: [19, 18, 15, 16, 17, 20, 21, 22], proximity: common });
    expect(ranked('best wint')).toEqual({ ids: [19, 22, 18, 21, 15, 16, 17, 20], proximity: ['4/4', '3/4', '2/4', '2/4', '1/4', '1/4', '1/4', '1/4'] });
    expect(ranked('best wi')).toEqual({ ids: [19, 18, 15, 16, 17, 20, 21, 22], proximity: common });
  });
});
