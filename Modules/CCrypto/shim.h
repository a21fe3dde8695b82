#ifndef RECEPTION_CCRYPTO_SHIM_H
#define RECEPTION_CCRYPTO_SHIM_H

// OpenSSL's libcrypto (Debian: libssl-dev), used only by the emulator's APNs provider: reading the team's .p8 key
// (PKCS#8, P-256) and signing its ES256 provider tokens.
#include <string.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

// BIO_get_mem_data is a macro over BIO_ctrl: the bytes written to a memory BIO.
static inline long reception_bio_contents(BIO *bio, const char **bytes) {
    char *start = NULL;
    long length = BIO_get_mem_data(bio, &start);
    *bytes = start;
    return length;
}

// The key in a PEM "PRIVATE KEY" (PKCS#8, unencrypted) block, or NULL when `pem` holds none. Other PEM kinds
// ("EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY", certificates) are not read. Clears OpenSSL's error queue.
static inline EVP_PKEY *reception_pkcs8_private_key(const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (bio == NULL) return NULL;
    PKCS8_PRIV_KEY_INFO *info = PEM_read_bio_PKCS8_PRIV_KEY_INFO(bio, NULL, NULL, NULL);
    BIO_free(bio);
    EVP_PKEY *key = info == NULL ? NULL : EVP_PKCS82PKEY(info);
    PKCS8_PRIV_KEY_INFO_free(info);
    ERR_clear_error();
    return key;
}

// 1 when `key` is an elliptic-curve key on P-256 (prime256v1), else 0.
static inline int reception_is_p256(const EVP_PKEY *key) {
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) return 0;
    char name[64];
    size_t length = 0;
    if (EVP_PKEY_get_group_name(key, name, sizeof name, &length) != 1) { ERR_clear_error(); return 0; }
    return strcmp(name, SN_X9_62_prime256v1) == 0;
}

// ECDSA over SHA-256 of `message`: the DER signature in `signature` (at least 80 bytes); its length, or 0.
static inline size_t reception_es256_sign_der(EVP_PKEY *key, const unsigned char *message, size_t length,
                                              unsigned char *signature, size_t capacity) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return 0;
    size_t written = capacity;
    int ok = EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, signature, &written, message, length) == 1;
    EVP_MD_CTX_free(context);
    ERR_clear_error();
    return ok ? written : 0;
}

// A new key on the curve `nid` (NID_X9_62_prime256v1, NID_secp384r1, …), or NULL. For tests and key guides.
static inline EVP_PKEY *reception_ec_generate(int nid) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL);
    EVP_PKEY *key = NULL;
    if (context != NULL && EVP_PKEY_keygen_init(context) == 1
        && EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, nid) == 1) {
        if (EVP_PKEY_keygen(context, &key) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    ERR_clear_error();
    return key;
}

// The private key as PKCS#8 PEM (`private_part` 1) or the public key as SubjectPublicKeyInfo PEM (0), in a new
// memory BIO the caller frees; NULL on failure.
static inline BIO *reception_key_pem(EVP_PKEY *key, int private_part) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    int ok = private_part ? PEM_write_bio_PKCS8PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL)
                          : PEM_write_bio_PUBKEY(bio, key);
    if (ok != 1) { BIO_free(bio); bio = NULL; }
    ERR_clear_error();
    return bio;
}

#endif
