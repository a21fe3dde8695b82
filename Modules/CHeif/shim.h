#ifndef RECEPTION_CHEIF_SHIM_H
#define RECEPTION_CHEIF_SHIM_H

// libheif (Debian: libheif-dev), used by ImagePipeline on Linux to decode HEIC and HEIF photos. Apple platforms
// decode them through ImageIO instead and never build this module.
#include <libheif/heif.h>

#endif
