/*
 * FreeType helpers for the parts of its API that are function-like macros,
 * which Swift does not import.
 */
#ifndef CIMAGING_FREETYPE_H
#define CIMAGING_FREETYPE_H

/* Light hinting snaps only vertically: stems stay crisp while glyph shapes
 * and spacing keep the designer's proportions. */
static const FT_Int32 cimg_ft_load_render_light = FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT;

static inline int cimg_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

#endif /* CIMAGING_FREETYPE_H */
