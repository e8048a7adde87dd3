/*
 * WebP through the runtime library, opened when first needed.
 *
 * Debian machines carry libwebp.so.7 (browsers and image tools depend on it) but not always its
 * headers, so the build does not depend on libwebp-dev: the few entry points used are declared here
 * and looked up with dlopen. Where the library is missing, ck_webp_available() is 0 and WebP photos
 * are refused as unsupported instead of failing the build.
 */
#ifndef CIMAGING_WEBP_H
#define CIMAGING_WEBP_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* The layout of libwebp's WebPBitstreamFeatures (decoder ABI 0x0209, unchanged since 0.5). */
typedef struct {
    int width;
    int height;
    int has_alpha;
    int has_animation;
    int format;
    uint32_t pad[5];
} ck_webp_features;

typedef int (*ck_webp_get_features_fn)(const uint8_t *, size_t, ck_webp_features *, int);
typedef uint8_t *(*ck_webp_decode_rgba_into_fn)(const uint8_t *, size_t, uint8_t *, size_t, int);
typedef size_t (*ck_webp_encode_rgba_fn)(const uint8_t *, int, int, int, float, uint8_t **);
typedef size_t (*ck_webp_encode_lossless_rgba_fn)(const uint8_t *, int, int, int, uint8_t **);
typedef void (*ck_webp_free_fn)(void *);

typedef struct {
    int loaded;
    ck_webp_get_features_fn get_features;
    ck_webp_decode_rgba_into_fn decode_rgba_into;
    ck_webp_encode_rgba_fn encode_rgba;
    ck_webp_encode_lossless_rgba_fn encode_lossless_rgba;
    ck_webp_free_fn free;
} ck_webp_api;

/* Opens the library once. Callers serialise the first call (the Swift side does it in a static let). */
static inline ck_webp_api ck_webp_load(void) {
    ck_webp_api api = {0, NULL, NULL, NULL, NULL, NULL};
    void *handle = dlopen("libwebp.so.7", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen("libwebp.so", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return api;
    api.get_features = (ck_webp_get_features_fn)dlsym(handle, "WebPGetFeaturesInternal");
    api.decode_rgba_into = (ck_webp_decode_rgba_into_fn)dlsym(handle, "WebPDecodeRGBAInto");
    api.encode_rgba = (ck_webp_encode_rgba_fn)dlsym(handle, "WebPEncodeRGBA");
    api.encode_lossless_rgba = (ck_webp_encode_lossless_rgba_fn)dlsym(handle, "WebPEncodeLosslessRGBA");
    api.free = (ck_webp_free_fn)dlsym(handle, "WebPFree");
    api.loaded = api.get_features && api.decode_rgba_into && api.encode_rgba && api.encode_lossless_rgba && api.free;
    return api;
}

/* The decoder ABI version WebPGetFeaturesInternal checks against. */
#define CK_WEBP_DECODER_ABI_VERSION 0x0209
/* VP8_STATUS_OK. */
#define CK_WEBP_STATUS_OK 0

#endif /* CIMAGING_WEBP_H */
