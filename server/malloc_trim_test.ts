// Free pages between blocks in use go back to the system (Linux, glibc:
// resident memory from /proc, blocks from libc's malloc through FFI).
import { ok } from "node:assert/strict";
import { trimMalloc } from "./malloc_trim.ts";

const rssMb = () =>
  Number(
    Deno.readTextFileSync("/proc/self/status").match(/VmRSS:\s+(\d+)/)![1],
  ) / 1024;

Deno.test({
  name: "free memory below a block in use goes back to the system",
  ignore: Deno.build.os !== "linux",
  fn() {
    const libc = Deno.dlopen("libc.so.6", {
      malloc: { parameters: ["usize"], result: "pointer" },
      free: { parameters: ["pointer"], result: "void" },
      memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
    });
    try {
      // 64 KB blocks: below glibc's mmap threshold, so in the heap.
      const size = 65_536n;
      const blocks = Array.from({ length: 1_600 }, () => {
        const block = libc.symbols.malloc(size);
        libc.symbols.memset(block, 1, size);
        return block;
      });
      // The last block stays in use, so the free space is not at the top.
      const last = blocks.pop()!;
      for (const block of blocks) libc.symbols.free(block);
      const before = rssMb();
      trimMalloc();
      const after = rssMb();
      libc.symbols.free(last);
      ok(before - after > 50, `RSS ${before} MB before, ${after} MB after`);
    } finally {
      libc.close();
    }
  },
});
