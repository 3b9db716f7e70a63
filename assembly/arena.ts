// The shared scratch memory between host and kernels. Linear memory is [static tables | arena];
// the arena starts at ARENA_ALIGN-aligned __heap_base and is laid out by the host's bump
// allocator (src/kernels/arena.ts), which is reset before every call. Its first
// RESULT_BLOCK_BYTES hold the result block, where a kernel reports the sizes it produced (or
// needed). Kernels never allocate (stub runtime, no `new`), so nothing else claims that memory.
// The constants are exported as globals and checked against src/kernels/arena.ts by the tests.

export const ARENA_ALIGN: u32 = 16;
export const RESULT_BLOCK_BYTES: u32 = 16;
/** u32 slot of the result block: records the call produced, or needed on ERR_OUT_OF_CAPACITY. */
export const RESULT_RECORDS: u32 = 0;
/** u32 slot of the result block: output bytes the call produced, or needed. */
export const RESULT_OUTPUT_BYTES: u32 = 4;

/** First byte the host may use; the result block lives there. */
export function arenaBase(): usize {
  return (__heap_base + <usize>ARENA_ALIGN - 1) & ~(<usize>ARENA_ALIGN - 1);
}

/** Writes one u32 slot of the result block. */
// @ts-ignore: decorator
@inline export function writeResult(slot: u32, value: u32): void {
  store<u32>(arenaBase() + <usize>slot, value);
}
