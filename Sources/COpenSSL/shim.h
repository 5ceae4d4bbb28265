// OpenSSL libcrypto: SHA-256 for the ledger fingerprint and the manifest hashes.
#include <openssl/evp.h>
