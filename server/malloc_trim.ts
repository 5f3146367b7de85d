// Gives memory that the C library's malloc holds free back to the system.
// glibc returns free space at the top of a heap by itself (MALLOC_ENV), but
// not free pages below a block still in use, and each thread allocates from
// an arena of its own: what a chunk's or an upload's buffers left free stayed
// with the process. malloc_trim releases those pages too. With another C
// library, or without the FFI permission, this does nothing.
let trim: (() => void) | null | undefined;

/** Gives the free pages of every malloc arena back to the system. */
export function trimMalloc(): void {
  if (trim === undefined) {
    trim = null;
    // Asked, never prompted for: without the permission, nothing to do.
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return;
    try {
      const libc = Deno.dlopen("libc.so.6", {
        malloc_trim: { parameters: ["usize"], result: "i32" },
      });
      trim = () => libc.symbols.malloc_trim(0n);
    } catch { /* not glibc */ }
  }
  trim?.();
}
