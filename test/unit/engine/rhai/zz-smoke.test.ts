import { it } from 'vitest';
import { compileScript, editDocument, EDITION_COMPILE_OPTIONS } from '../../../../src/engine/rhai/index.js';
const run = (src: string, doc: Record<string, unknown>, ctx: Record<string, unknown> | null = null) => editDocument(compileScript(src, EDITION_COMPILE_OPTIONS), doc, ctx);
it('depth', () => {
  for (const n of [100, 200, 400, 600, 800, 1000]) {
    try { console.log(n, JSON.stringify(run(`fn f(x) { if x >= ${n} { return x; } f(x + 1) } doc.r = f(0);`, {}))); } catch (e) { console.log(n, String(e).slice(0, 200)); }
  }
});
