#ifndef RECEPTION_CZLIB_SHIM_H
#define RECEPTION_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit and deflateInit are macros that pass the zlib version and stream size; Swift cannot call macros.
static inline int reception_inflate_init(z_streamp stream) {
    return inflateInit(stream);
}

static inline int reception_deflate_init(z_streamp stream, int level) {
    return deflateInit(stream, level);
}

#endif
