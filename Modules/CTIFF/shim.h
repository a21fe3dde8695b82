#ifndef RECEPTION_CTIFF_SHIM_H
#define RECEPTION_CTIFF_SHIM_H

// libtiff (Debian: libtiff-dev), used by ImagePipeline on Linux to decode TIFF files. Apple platforms decode TIFF
// through ImageIO instead and never build this module.
#include <stdint.h>
#include <tiffio.h>

// TIFFGetField is variadic, which Swift cannot call; these fix the argument types of the fields read, one per type.

static inline int reception_tiff_get_uint32(TIFF *tiff, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tiff, tag, value);
}

static inline int reception_tiff_get_uint16(TIFF *tiff, uint32_t tag, uint16_t *value) {
    return TIFFGetField(tiff, tag, value);
}

// A counted byte array, as TIFFTAG_ICCPROFILE is read (count, then a pointer libtiff owns).
static inline int reception_tiff_get_bytes(TIFF *tiff, uint32_t tag, uint32_t *count, const void **bytes) {
    return TIFFGetField(tiff, tag, count, bytes);
}

// TIFFTAG_STRIPBYTECOUNTS and TIFFTAG_TILEBYTECOUNTS: a pointer to one 64-bit count per strip or tile.
static inline int reception_tiff_get_counts(TIFF *tiff, uint32_t tag, const uint64_t **counts) {
    return TIFFGetField(tiff, tag, counts);
}

// TIFFTAG_EXTRASAMPLES: how many extra samples a pixel has and what each one is.
static inline int reception_tiff_get_extra_samples(TIFF *tiff, uint16_t *count, const uint16_t **types) {
    return TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, count, types);
}

#endif
