/** The benchmarks' command-line options: `--name N` as a number, or `fallback` when absent. */
export function numberOption(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
}
