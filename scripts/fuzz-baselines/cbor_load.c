/* Baseline for `scripts/bench fuzz`: libcbor's own decoder as a libFuzzer target, to compare with fuzz-cbor. */
#include <cbor.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct cbor_load_result result;
    cbor_item_t *item = cbor_load(data, size, &result);
    if (item != NULL) cbor_decref(&item);
    return 0;
}
