/* Baseline for `scripts/bench fuzz`: OpenSSL's generic DER parser as a libFuzzer target, to compare with fuzz-der. */
#include <openssl/asn1.h>
#include <openssl/err.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const unsigned char *cursor = data;
    ASN1_TYPE *parsed = d2i_ASN1_TYPE(NULL, &cursor, (long)size);
    if (parsed != NULL) ASN1_TYPE_free(parsed);
    ERR_clear_error();
    return 0;
}
