// The export list of the kernels module: every entry point the host may call, nothing else.
export function version(): i32 {
  return 1;
}
