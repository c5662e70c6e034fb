#include "fuzz_support.h"

/* Weak, so that ordinary (non-fuzzer) builds link and see a null pointer. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

size_t fuzz_support_mutate(uint8_t *data, size_t size, size_t max_size) {
    if (LLVMFuzzerMutate) return LLVMFuzzerMutate(data, size, max_size);
    return size;
}
