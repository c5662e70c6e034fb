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

#endif
