// One PDF document drawn with cairo, its text laid out by pango in fonts fontconfig finds, the
// PDF's bytes kept in memory until the caller takes them.
#include "CCairo.h"

#include <cairo/cairo-pdf.h>
#include <cairo/cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CCairo_document {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoFontMap *fonts;
    PangoContext *context;
    unsigned char *bytes;
    size_t length, capacity;
    char error[256];
};

// The PDF surface's output: appended to the document's buffer.
static cairo_status_t CCairo_append(void *closure, const unsigned char *data, unsigned int length) {
    CCairo_document *document = closure;
    if (document->length + length > document->capacity) {
        size_t capacity = document->capacity ? document->capacity : 65536;
        while (capacity < document->length + length) capacity *= 2;
        unsigned char *grown = realloc(document->bytes, capacity);
        if (!grown) return CAIRO_STATUS_NO_MEMORY;
        document->bytes = grown;
        document->capacity = capacity;
    }
    memcpy(document->bytes + document->length, data, length);
    document->length += length;
    return CAIRO_STATUS_SUCCESS;
}

// `text` with the five characters XML gives meaning to escaped; NULL when out of memory.
static char *CCairo_xml_escaped(const char *text) {
    size_t length = 0;
    for (const char *c = text; *c; c++) length += strchr("&<>\"'", *c) ? 6 : 1;
    char *out = malloc(length + 1), *end = out;
    if (!out) return NULL;
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': end = stpcpy(end, "&amp;"); break;
        case '<': end = stpcpy(end, "&lt;"); break;
        case '>': end = stpcpy(end, "&gt;"); break;
        case '"': end = stpcpy(end, "&quot;"); break;
        case '\'': end = stpcpy(end, "&apos;"); break;
        default: *end++ = *c;
        }
    }
    *end = 0;
    return out;
}

// The system's font configuration with `cache` as the first cache folder, made fontconfig's
// current one: fontconfig reads every cache folder the system names, and writes a missing or stale
// cache into the first it can. It is current before anything asks fontconfig for its default
// configuration (pango's font map, even FcConfigFilename), which would otherwise be loaded and
// scanned as well, its caches written wherever the system says.
static FcConfig *CCairo_font_config(const char *cache) {
    FcConfig *config = FcConfigCreate();
    if (!config) return NULL;
    if (!FcConfigSetCurrent(config)) {
        FcConfigDestroy(config);
        return NULL;
    }
    FcChar8 *system = FcConfigFilename(NULL);
    char *folder = CCairo_xml_escaped(cache);
    char *file = system ? CCairo_xml_escaped((const char *)system) : NULL;
    if (system) FcStrFree(system);
    size_t size = (folder ? strlen(folder) : 0) + (file ? strlen(file) : 0) + 256;
    char *xml = malloc(size);
    int loaded = 0;
    if (folder && file && xml) {
        snprintf(xml, size,
                 "<?xml version=\"1.0\"?>\n<fontconfig><cachedir>%s</cachedir>"
                 "<include ignore_missing=\"yes\">%s</include></fontconfig>\n",
                 folder, file);
        loaded = FcConfigParseAndLoadFromMemory(config, (const FcChar8 *)xml, FcFalse) && FcConfigBuildFonts(config);
    }
    free(xml);
    free(file);
    free(folder);
    if (!loaded) {
        FcConfigDestroy(config);
        return NULL;
    }
    return config;
}

int CCairo_document_open(double width, double height, const char *title, const char *font_cache,
                         CCairo_document **out) {
    *out = NULL;
    CCairo_document *document = calloc(1, sizeof(*document));
    if (!document) return -ENOMEM;
    FcConfig *config = CCairo_font_config(font_cache);
    if (!config) {
        free(document);
        return -EIO;
    }
    // The process (current configuration) and the font map each hold a reference of their own.
    document->fonts = pango_cairo_font_map_new();
    pango_fc_font_map_set_config((PangoFcFontMap *)document->fonts, config);
    FcConfigDestroy(config);
    document->surface = cairo_pdf_surface_create_for_stream(CCairo_append, document, width, height);
    document->cr = cairo_create(document->surface);
    if (cairo_status(document->cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(document->error, sizeof document->error, "%s", cairo_status_to_string(cairo_status(document->cr)));
        CCairo_document_free(document);
        return -EIO;
    }
    cairo_pdf_surface_set_metadata(document->surface, CAIRO_PDF_METADATA_TITLE, title);
    cairo_pdf_surface_set_metadata(document->surface, CAIRO_PDF_METADATA_CREATOR, "cravey");
    cairo_set_line_cap(document->cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(document->cr, CAIRO_LINE_JOIN_ROUND);
    document->context = pango_font_map_create_context(document->fonts);
    // Points are the page's units: a 10-point font is 10 units tall.
    pango_cairo_context_set_resolution(document->context, 72);
    pango_cairo_update_context(document->cr, document->context);
    *out = document;
    return 0;
}

void CCairo_document_page(CCairo_document *document) { cairo_show_page(document->cr); }

void CCairo_document_color(CCairo_document *document, double red, double green, double blue) {
    cairo_set_source_rgb(document->cr, red, green, blue);
}

void CCairo_document_rectangle(CCairo_document *document, double x, double y, double width, double height,
                               double radius) {
    radius = fmin(radius, fmin(width, height) / 2);
    if (radius <= 0) {
        cairo_rectangle(document->cr, x, y, width, height);
        return;
    }
    cairo_new_sub_path(document->cr);
    cairo_arc(document->cr, x + width - radius, y + radius, radius, -M_PI / 2, 0);
    cairo_arc(document->cr, x + width - radius, y + height - radius, radius, 0, M_PI / 2);
    cairo_arc(document->cr, x + radius, y + height - radius, radius, M_PI / 2, M_PI);
    cairo_arc(document->cr, x + radius, y + radius, radius, M_PI, 3 * M_PI / 2);
    cairo_close_path(document->cr);
}

void CCairo_document_circle(CCairo_document *document, double x, double y, double radius) {
    cairo_new_sub_path(document->cr);
    cairo_arc(document->cr, x, y, radius, 0, 2 * M_PI);
}

void CCairo_document_move_to(CCairo_document *document, double x, double y) { cairo_move_to(document->cr, x, y); }

void CCairo_document_line_to(CCairo_document *document, double x, double y) { cairo_line_to(document->cr, x, y); }

void CCairo_document_fill(CCairo_document *document) { cairo_fill(document->cr); }

void CCairo_document_stroke(CCairo_document *document, double width) {
    cairo_set_line_width(document->cr, width);
    cairo_stroke(document->cr);
}

// Whether `text` is well-formed UTF-8 (pango draws boxes, or warns, for anything else).
static int CCairo_is_utf8(const unsigned char *text) {
    while (*text) {
        int extra = *text < 0x80 ? 0 : (*text & 0xE0) == 0xC0 ? 1 : (*text & 0xF0) == 0xE0 ? 2
                  : (*text & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0 || (extra == 1 && *text < 0xC2)) return 0;
        text++;
        for (int i = 0; i < extra; i++, text++)
            if ((*text & 0xC0) != 0x80) return 0;
    }
    return 1;
}

int CCairo_document_text(CCairo_document *document, const char *text, const char *font, double x, double y,
                         double width, int align, int draw, double *out_width, double *out_height) {
    *out_width = 0;
    *out_height = 0;
    if (!CCairo_is_utf8((const unsigned char *)text)) return -EINVAL;
    PangoLayout *layout = pango_layout_new(document->context);
    PangoFontDescription *description = pango_font_description_from_string(font);
    pango_layout_set_font_description(layout, description);
    pango_font_description_free(description);
    if (width > 0) {
        pango_layout_set_width(layout, (int)(width * 1024));  // pango units: 1024 a point
        pango_layout_set_wrap(layout, 2);                    // PANGO_WRAP_WORD_CHAR
        pango_layout_set_alignment(layout, align);           // PANGO_ALIGN_LEFT, _CENTER, _RIGHT
    }
    pango_layout_set_text(layout, text, -1);
    int w = 0, h = 0;
    pango_layout_get_size(layout, &w, &h);
    *out_width = w / 1024.0;
    *out_height = h / 1024.0;
    if (draw) {
        cairo_move_to(document->cr, x, y);
        pango_cairo_show_layout(document->cr, layout);
    }
    g_object_unref(layout);
    return 0;
}

int CCairo_document_finish(CCairo_document *document, const unsigned char **bytes, size_t *length) {
    *bytes = NULL;
    *length = 0;
    cairo_destroy(document->cr);
    document->cr = NULL;
    cairo_surface_finish(document->surface);
    cairo_status_t status = cairo_surface_status(document->surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(document->error, sizeof document->error, "%s", cairo_status_to_string(status));
        return status == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO;
    }
    *bytes = document->bytes;
    *length = document->length;
    return 0;
}

const char *CCairo_document_error(CCairo_document *document) { return document->error; }

void CCairo_document_free(CCairo_document *document) {
    if (!document) return;
    if (document->context) g_object_unref(document->context);
    if (document->cr) cairo_destroy(document->cr);
    if (document->surface) cairo_surface_destroy(document->surface);
    if (document->fonts) g_object_unref(document->fonts);
    free(document->bytes);
    free(document);
}
