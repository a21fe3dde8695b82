#ifndef RECEPTION_CGIF_SHIM_H
#define RECEPTION_CGIF_SHIM_H

// giflib (Debian: libgif-dev), used by ImagePipeline on Linux to decode a GIF's first frame. Apple platforms
// decode GIF through ImageIO instead and never build this module.
#include <gif_lib.h>

#endif
