/*
 * libpng's simplified API handles errors internally (it does its own setjmp),
 * so Swift can call it directly; these constants only exist because the
 * format macros are composed from other macros that Swift may not import.
 */
#ifndef CIMAGING_PNG_H
#define CIMAGING_PNG_H

static const unsigned int cimg_png_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int cimg_png_image_version = PNG_IMAGE_VERSION;
static const unsigned int cimg_png_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;

#endif /* CIMAGING_PNG_H */
