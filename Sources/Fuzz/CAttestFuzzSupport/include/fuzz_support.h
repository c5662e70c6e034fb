/* libFuzzer's own mutator, reachable from Swift in fuzz builds and absent (a no-op) in ordinary builds. */
#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

/* Mutates data[0..size) in place, up to max_size bytes, with libFuzzer's mutators; returns the new size.
   Without libFuzzer linked in, returns size unchanged. */
size_t fuzz_support_mutate(uint8_t *data, size_t size, size_t max_size);

#endif
