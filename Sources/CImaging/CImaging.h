/*
 * Umbrella header for the C libraries that Imaging wraps.
 *
 * The libraries themselves are called directly from Swift, except libjpeg:
 * it reports errors by calling an error_exit hook that must not return, and
 * the only safe way out is longjmp. Swift cannot setjmp, so the few functions
 * that drive libjpeg live in CImagingJPEG.h as `static inline` C, compiled by
 * the Swift compiler's built-in clang. Every longjmp lands inside those C
 * functions; no Swift frame is ever jumped over.
 */
#ifndef CIMAGING_H
#define CIMAGING_H

/* jpeglib.h uses FILE and size_t without including anything itself. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include "CImagingJPEG.h"
#include "CImagingPNG.h"
#include "CImagingFreeType.h"
#include "CImagingWebP.h"

#endif /* CIMAGING_H */
