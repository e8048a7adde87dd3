/*
 * libjpeg glue. All state lives in heap structs rather than in locals, so
 * nothing is "indeterminate" after a longjmp (C11 7.13.2.1p3).
 */
#ifndef CIMAGING_JPEG_H
#define CIMAGING_JPEG_H

/* A corrupt progressive file can hold thousands of tiny scans, each costing a
 * full pass over the coefficient buffer; real encoders write about ten. */
#define CIMG_JPEG_MAX_SCANS 500

typedef struct cimg_jpeg_error {
    struct jpeg_error_mgr manager; /* first: libjpeg hands us a pointer to it */
    jmp_buf jump;
    int premature_end;             /* set when the mem source had to fake an EOI */
    char message[JMSG_LENGTH_MAX];
} cimg_jpeg_error;

static inline void cimg_jpeg_error_exit(j_common_ptr common) {
    cimg_jpeg_error *error = (cimg_jpeg_error *)common->err;
    (*common->err->format_message)(common, error->message);
    longjmp(error->jump, 1);
}

/* libjpeg "recovers" from truncation by inventing an EOI and filling the rest
 * of the picture with grey. For uploads a silently half-grey photo is worse than
 * a clear error, so the warning is remembered and turned into a failure. */
static inline void cimg_jpeg_emit_message(j_common_ptr common, int level) {
    if (level < 0) {
        cimg_jpeg_error *error = (cimg_jpeg_error *)common->err;
        if (common->err->msg_code == JWRN_JPEG_EOF) error->premature_end = 1;
        common->err->num_warnings++;
    }
}

/* A library must not write to stderr. */
static inline void cimg_jpeg_output_message(j_common_ptr common) { (void)common; }

static inline void cimg_jpeg_install_error_handlers(cimg_jpeg_error *error) {
    jpeg_std_error(&error->manager);
    error->manager.error_exit = cimg_jpeg_error_exit;
    error->manager.emit_message = cimg_jpeg_emit_message;
    error->manager.output_message = cimg_jpeg_output_message;
}

typedef struct cimg_jpeg_decoder {
    struct jpeg_decompress_struct info;
    cimg_jpeg_error error;
    struct jpeg_progress_mgr progress;
    int output_is_cmyk;
    int cmyk_is_inverted;
} cimg_jpeg_decoder;

static inline void cimg_jpeg_progress(j_common_ptr common) {
    j_decompress_ptr info = (j_decompress_ptr)common;
    if (info->input_scan_number > CIMG_JPEG_MAX_SCANS) {
        cimg_jpeg_error *error = (cimg_jpeg_error *)common->err;
        snprintf(error->message, sizeof error->message,
                 "more than %d progressive scans", CIMG_JPEG_MAX_SCANS);
        longjmp(error->jump, 1);
    }
}

/* Returns NULL only when out of memory. */
static inline cimg_jpeg_decoder *cimg_jpeg_decoder_create(void) {
    cimg_jpeg_decoder *decoder = (cimg_jpeg_decoder *)calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->info.err = &decoder->error.manager;
    cimg_jpeg_install_error_handlers(&decoder->error);
    if (setjmp(decoder->error.jump)) {
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->progress.progress_monitor = cimg_jpeg_progress;
    decoder->info.progress = &decoder->progress;
    return decoder;
}

static inline void cimg_jpeg_decoder_destroy(cimg_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

static inline const char *cimg_jpeg_decoder_message(const cimg_jpeg_decoder *decoder) {
    return decoder->error.message;
}

/* Parses markers up to the first scan. `data` must stay valid until destroy.
 * Returns 0 on success; afterwards info.image_width/height are known and
 * nothing large has been allocated yet. */
static inline int cimg_jpeg_read_header(cimg_jpeg_decoder *decoder,
                                        const unsigned char *data, unsigned long size) {
    if (setjmp(decoder->error.jump)) return -1;
    jpeg_mem_src(&decoder->info, data, size);
    jpeg_read_header(&decoder->info, TRUE);
    return 0;
}

/* Starts decompression at 1/scale_denom size (1, 2, 4 or 8: the IDCT itself
 * shrinks the picture, far cheaper than decoding full size and resizing).
 * Afterwards info.output_width/height give the size to allocate. */
static inline int cimg_jpeg_start(cimg_jpeg_decoder *decoder, unsigned int scale_denom) {
    struct jpeg_decompress_struct *info = &decoder->info;
    if (setjmp(decoder->error.jump)) return -1;
    info->scale_num = 1;
    info->scale_denom = scale_denom;
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        /* libjpeg cannot convert CMYK to RGB; we do it while reading. */
        info->out_color_space = JCS_CMYK;
        decoder->output_is_cmyk = 1;
        /* Photoshop writes CMYK inverted and marks its files with an Adobe
         * APP14 segment; every mainstream decoder keys the inversion off it. */
        decoder->cmyk_is_inverted = info->saw_Adobe_marker ? 1 : 0;
    } else {
        info->out_color_space = JCS_EXT_RGBA; /* grey and YCbCr expand for free */
    }
    jpeg_start_decompress(info);
    return 0;
}

static inline unsigned char cimg_mul255(unsigned int a, unsigned int b) {
    unsigned int t = a * b + 128;
    return (unsigned char)((t + (t >> 8)) >> 8);
}

/* Decodes every row into `pixels` (output_width * 4 bytes per row). */
static inline int cimg_jpeg_read_pixels(cimg_jpeg_decoder *decoder, unsigned char *pixels) {
    struct jpeg_decompress_struct *info = &decoder->info;
    if (setjmp(decoder->error.jump)) return -1;
    size_t stride = (size_t)info->output_width * 4;
    while (info->output_scanline < info->output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = info->output_height - info->output_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++)
            rows[i] = pixels + (size_t)(info->output_scanline + i) * stride;
        jpeg_read_scanlines(info, rows, count);
    }
    if (decoder->output_is_cmyk) {
        size_t total = (size_t)info->output_height * info->output_width;
        for (size_t i = 0; i < total; i++) {
            unsigned char *p = pixels + i * 4;
            unsigned int c = p[0], m = p[1], y = p[2], k = p[3];
            if (!decoder->cmyk_is_inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
            p[0] = cimg_mul255(c, k);
            p[1] = cimg_mul255(m, k);
            p[2] = cimg_mul255(y, k);
            p[3] = 255;
        }
    }
    jpeg_finish_decompress(info);
    if (decoder->error.premature_end) {
        snprintf(decoder->error.message, sizeof decoder->error.message,
                 "premature end of JPEG data");
        return -1;
    }
    return 0;
}

typedef struct cimg_jpeg_encoder {
    struct jpeg_compress_struct info;
    cimg_jpeg_error error;
    unsigned char *output;
    unsigned long output_size;
} cimg_jpeg_encoder;

/* Encodes interleaved samples (components: 1 grey, 3 RGB, 4 CMYK) with no
 * metadata beyond the JFIF (or, for CMYK, Adobe) header libjpeg requires.
 * full_chroma selects 4:4:4 instead of 4:2:0. On success returns 0 and a
 * malloc'ed buffer the caller releases with cimg_free. */
static inline int cimg_jpeg_encode(const unsigned char *samples, int width, int height,
                                   int components, int quality, int full_chroma,
                                   unsigned char **output, unsigned long *output_size) {
    cimg_jpeg_encoder *encoder = (cimg_jpeg_encoder *)calloc(1, sizeof *encoder);
    if (encoder == NULL) return -1;
    encoder->info.err = &encoder->error.manager;
    cimg_jpeg_install_error_handlers(&encoder->error);
    if (setjmp(encoder->error.jump)) {
        jpeg_destroy_compress(&encoder->info);
        free(encoder->output);
        free(encoder);
        return -1;
    }
    struct jpeg_compress_struct *info = &encoder->info;
    jpeg_create_compress(info);
    jpeg_mem_dest(info, &encoder->output, &encoder->output_size);
    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    info->input_components = components;
    info->in_color_space = components == 1 ? JCS_GRAYSCALE : (components == 4 ? JCS_CMYK : JCS_RGB);
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE; /* a few percent smaller for a few percent more time */
    if (full_chroma && components == 3) {
        info->comp_info[0].h_samp_factor = 1;
        info->comp_info[0].v_samp_factor = 1;
    }
    jpeg_start_compress(info, TRUE);
    size_t stride = (size_t)width * (size_t)components;
    while (info->next_scanline < info->image_height) {
        JSAMPROW row = (JSAMPROW)(samples + (size_t)info->next_scanline * stride);
        jpeg_write_scanlines(info, &row, 1);
    }
    jpeg_finish_compress(info);
    *output = encoder->output;
    *output_size = encoder->output_size;
    jpeg_destroy_compress(info); /* leaves the mem destination buffer alone */
    free(encoder);
    return 0;
}

/* Releases buffers allocated by the C libraries with malloc. */
static inline void cimg_free(void *pointer) { free(pointer); }

#endif /* CIMAGING_JPEG_H */
