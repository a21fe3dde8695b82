#ifndef RECEPTION_CWEBP_SHIM_H
#define RECEPTION_CWEBP_SHIM_H

// libwebp and its demuxer (Debian: libwebp-dev), used by ImagePipeline on Linux to decode WebP files (lossy,
// lossless, alpha; the first frame of an animation) and read their ICCP chunk. Apple platforms decode WebP through
// ImageIO instead and never build this module.
#include <webp/decode.h>
#include <webp/demux.h>

#endif
