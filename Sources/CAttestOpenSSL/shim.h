/*
 * OpenSSL 3 (Debian libssl-dev) for Swift.
 * Pre-3.0 APIs are hidden so that only EVP and other current APIs can be called.
 * Function-like macros and variadic functions do not import into Swift; the inline wrappers below replace them.
 */
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>      /* needed explicitly once deprecated APIs are hidden */
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/kdf.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/core_names.h>
#include <openssl/ssl.h>       /* TLS for the HTTP client of live verifiers */

/* EVP_PKEY_PUBLIC_KEY is built from other macros and does not import. */
static const int copenssl_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
/* XN_FLAG_RFC2253 is an expression of other macros. */
static const unsigned long copenssl_XN_FLAG_RFC2253 = XN_FLAG_RFC2253;

static inline void copenssl_free(void *p) { OPENSSL_free(p); }

static inline STACK_OF(X509) *copenssl_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int copenssl_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void copenssl_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline int copenssl_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *copenssl_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }

/* BIO_get_mem_data is a macro over BIO_ctrl. */
static inline long copenssl_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }

/* SSL_set_tlsext_host_name is a macro over SSL_ctrl (SNI). */
static inline long copenssl_SSL_set_tlsext_host_name(SSL *s, const char *name) { return SSL_set_tlsext_host_name(s, name); }

/*
 * Floors for scripts/bench's der.read row (the strict DER reader over the fuzz-der seed corpus), both OpenSSL:
 * copenssl_bench_d2i_type is d2i_ASN1_TYPE, fuzz-der's baseline, which reads one TLV and copies a constructed
 * element's content whole without looking inside; copenssl_bench_walk reads every TLV with ASN1_get_object,
 * descending into constructed ones (definite and indefinite lengths, at most 50 deep, as the reader), building
 * nothing. 1 when the whole input was read, 0 when OpenSSL refused it (its error queue is cleared).
 */
static inline int copenssl_bench_d2i_type(const unsigned char *input, long length) {
    const unsigned char *cursor = input;
    ASN1_TYPE *parsed = d2i_ASN1_TYPE(NULL, &cursor, length);
    if (parsed == NULL) { ERR_clear_error(); return 0; }
    ASN1_TYPE_free(parsed);
    return cursor == input + length;
}

/* Reads TLVs from *cursor up to end (or, with until_end_of_contents, up to and including 00 00). */
static inline int copenssl_bench_walk_level(const unsigned char **cursor, const unsigned char *end, int depth,
                                            int until_end_of_contents) {
    const unsigned char *p = *cursor;
    while (p < end) {
        long length = 0;
        int tag = 0, tag_class = 0;
        int result = ASN1_get_object(&p, &length, &tag, &tag_class, (long)(end - p));
        if (result & 0x80) return 0;
        if (until_end_of_contents && tag == 0 && tag_class == 0 && length == 0 && !(result & 0x20)) {
            *cursor = p;
            return 1;
        }
        if (result & 0x20) {
            if (depth >= 50) return 0;
            const unsigned char *inner = p;
            if (result & 0x01) {
                if (!copenssl_bench_walk_level(&inner, end, depth + 1, 1)) return 0;
            } else {
                if (!copenssl_bench_walk_level(&inner, p + length, depth + 1, 0) || inner != p + length) return 0;
            }
            p = inner;
        } else {
            p += length;
        }
    }
    if (until_end_of_contents) return 0;
    *cursor = p;
    return 1;
}

static inline int copenssl_bench_walk(const unsigned char *input, long length) {
    const unsigned char *cursor = input;
    /* One element, as the reader's parse: its TLV, then everything inside it. */
    long content = 0;
    int tag = 0, tag_class = 0;
    int result = ASN1_get_object(&cursor, &content, &tag, &tag_class, length);
    if (result & 0x80) { ERR_clear_error(); return 0; }
    const unsigned char *end;
    if (result & 0x20) {
        const unsigned char *inner = cursor;
        int ok = (result & 0x01) ? copenssl_bench_walk_level(&inner, input + length, 2, 1)
                                 : copenssl_bench_walk_level(&inner, cursor + content, 2, 0) && inner == cursor + content;
        if (!ok) { ERR_clear_error(); return 0; }
        end = inner;
    } else {
        end = cursor + content;
    }
    return end == input + length;
}

#endif
