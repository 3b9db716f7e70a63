// Status codes the kernels return to the host instead of throwing (a trap would leave the host
// with nothing to act on). Every export returns a count >= 0 on success or one of these values.
// Mirrored by KernelStatus in src/kernels/module.ts; test/kernels checks the two agree.

/**
 * An output region was too small. The kernel still ran to the end, counting, and wrote the sizes
 * it needed into the arena's result block, so the host grows the regions and retries once.
 */
export const ERR_OUT_OF_CAPACITY: i32 = -1;

/** A (offset, length) entry of the string table points outside the input bytes. */
export const ERR_BAD_SPAN: i32 = -2;

/** The custom-token rules region is malformed (assembly/custom-tokens.ts describes it). */
export const ERR_BAD_RULES: i32 = -3;

/** The word-breaks region is out of order or names a string the batch does not have. */
export const ERR_BAD_BREAKS: i32 = -4;
