// The cairo, pango and fontconfig functions this shim calls, resolved on first use (see CLoader.h:
// the executable does not link them, so a call to a function missing from this list does not
// link). Include it after the libraries' headers and before any call: each name below becomes a
// call through the table, which opens the libraries the first time.
//
// cairo's and fontconfig's own headers declare their functions. Pango's headers include GLib's,
// whose configuration header lives in an architecture's own directory; the few pango and GObject
// functions used here are declared below instead, as pango 1.50 declares them (enums as int),
// with their types opaque.
#ifndef CCAIRO_LIBRARIES_H
#define CCAIRO_LIBRARIES_H

#include <CLoader.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo.h>
#include <fontconfig/fontconfig.h>

typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoFcFontMap PangoFcFontMap;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;

PangoFontMap *pango_cairo_font_map_new(void);
void pango_fc_font_map_set_config(PangoFcFontMap *fcfontmap, FcConfig *fcconfig);
PangoContext *pango_font_map_create_context(PangoFontMap *fontmap);
void pango_cairo_context_set_resolution(PangoContext *context, double dpi);
void pango_cairo_update_context(cairo_t *cr, PangoContext *context);
PangoLayout *pango_layout_new(PangoContext *context);
void pango_layout_set_text(PangoLayout *layout, const char *text, int length);
void pango_layout_set_width(PangoLayout *layout, int width);
void pango_layout_set_wrap(PangoLayout *layout, int wrap);
void pango_layout_set_alignment(PangoLayout *layout, int alignment);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *desc);
void pango_layout_get_size(PangoLayout *layout, int *width, int *height);
void pango_cairo_show_layout(cairo_t *cr, PangoLayout *layout);
PangoFontDescription *pango_font_description_from_string(const char *str);
void pango_font_description_free(PangoFontDescription *desc);
void g_object_unref(void *object);

#define CCAIRO_FUNCTIONS(X) \
    X(FcConfigBuildFonts) \
    X(FcConfigCreate) \
    X(FcConfigDestroy) \
    X(FcConfigFilename) \
    X(FcConfigParseAndLoadFromMemory) \
    X(FcConfigSetCurrent) \
    X(FcStrFree) \
    X(cairo_arc) \
    X(cairo_close_path) \
    X(cairo_create) \
    X(cairo_destroy) \
    X(cairo_fill) \
    X(cairo_line_to) \
    X(cairo_move_to) \
    X(cairo_new_sub_path) \
    X(cairo_pdf_surface_create_for_stream) \
    X(cairo_pdf_surface_set_metadata) \
    X(cairo_rectangle) \
    X(cairo_set_line_cap) \
    X(cairo_set_line_join) \
    X(cairo_set_line_width) \
    X(cairo_set_source_rgb) \
    X(cairo_show_page) \
    X(cairo_status) \
    X(cairo_status_to_string) \
    X(cairo_stroke) \
    X(cairo_surface_destroy) \
    X(cairo_surface_finish) \
    X(cairo_surface_status) \
    X(g_object_unref) \
    X(pango_cairo_context_set_resolution) \
    X(pango_cairo_font_map_new) \
    X(pango_cairo_show_layout) \
    X(pango_cairo_update_context) \
    X(pango_fc_font_map_set_config) \
    X(pango_font_description_free) \
    X(pango_font_description_from_string) \
    X(pango_font_map_create_context) \
    X(pango_layout_get_size) \
    X(pango_layout_new) \
    X(pango_layout_set_alignment) \
    X(pango_layout_set_font_description) \
    X(pango_layout_set_text) \
    X(pango_layout_set_width) \
    X(pango_layout_set_wrap)

CLOADER_DECLARE(CCairo, CCAIRO_FUNCTIONS)

#define FcConfigBuildFonts CLOADER_CALL(CCairo, FcConfigBuildFonts)
#define FcConfigCreate CLOADER_CALL(CCairo, FcConfigCreate)
#define FcConfigDestroy CLOADER_CALL(CCairo, FcConfigDestroy)
#define FcConfigFilename CLOADER_CALL(CCairo, FcConfigFilename)
#define FcConfigParseAndLoadFromMemory CLOADER_CALL(CCairo, FcConfigParseAndLoadFromMemory)
#define FcConfigSetCurrent CLOADER_CALL(CCairo, FcConfigSetCurrent)
#define FcStrFree CLOADER_CALL(CCairo, FcStrFree)
#define cairo_arc CLOADER_CALL(CCairo, cairo_arc)
#define cairo_close_path CLOADER_CALL(CCairo, cairo_close_path)
#define cairo_create CLOADER_CALL(CCairo, cairo_create)
#define cairo_destroy CLOADER_CALL(CCairo, cairo_destroy)
#define cairo_fill CLOADER_CALL(CCairo, cairo_fill)
#define cairo_line_to CLOADER_CALL(CCairo, cairo_line_to)
#define cairo_move_to CLOADER_CALL(CCairo, cairo_move_to)
#define cairo_new_sub_path CLOADER_CALL(CCairo, cairo_new_sub_path)
#define cairo_pdf_surface_create_for_stream CLOADER_CALL(CCairo, cairo_pdf_surface_create_for_stream)
#define cairo_pdf_surface_set_metadata CLOADER_CALL(CCairo, cairo_pdf_surface_set_metadata)
#define cairo_rectangle CLOADER_CALL(CCairo, cairo_rectangle)
#define cairo_set_line_cap CLOADER_CALL(CCairo, cairo_set_line_cap)
#define cairo_set_line_join CLOADER_CALL(CCairo, cairo_set_line_join)
#define cairo_set_line_width CLOADER_CALL(CCairo, cairo_set_line_width)
#define cairo_set_source_rgb CLOADER_CALL(CCairo, cairo_set_source_rgb)
#define cairo_show_page CLOADER_CALL(CCairo, cairo_show_page)
#define cairo_status CLOADER_CALL(CCairo, cairo_status)
#define cairo_status_to_string CLOADER_CALL(CCairo, cairo_status_to_string)
#define cairo_stroke CLOADER_CALL(CCairo, cairo_stroke)
#define cairo_surface_destroy CLOADER_CALL(CCairo, cairo_surface_destroy)
#define cairo_surface_finish CLOADER_CALL(CCairo, cairo_surface_finish)
#define cairo_surface_status CLOADER_CALL(CCairo, cairo_surface_status)
#define g_object_unref CLOADER_CALL(CCairo, g_object_unref)
#define pango_cairo_context_set_resolution CLOADER_CALL(CCairo, pango_cairo_context_set_resolution)
#define pango_cairo_font_map_new CLOADER_CALL(CCairo, pango_cairo_font_map_new)
#define pango_cairo_show_layout CLOADER_CALL(CCairo, pango_cairo_show_layout)
#define pango_cairo_update_context CLOADER_CALL(CCairo, pango_cairo_update_context)
#define pango_fc_font_map_set_config CLOADER_CALL(CCairo, pango_fc_font_map_set_config)
#define pango_font_description_free CLOADER_CALL(CCairo, pango_font_description_free)
#define pango_font_description_from_string CLOADER_CALL(CCairo, pango_font_description_from_string)
#define pango_font_map_create_context CLOADER_CALL(CCairo, pango_font_map_create_context)
#define pango_layout_get_size CLOADER_CALL(CCairo, pango_layout_get_size)
#define pango_layout_new CLOADER_CALL(CCairo, pango_layout_new)
#define pango_layout_set_alignment CLOADER_CALL(CCairo, pango_layout_set_alignment)
#define pango_layout_set_font_description CLOADER_CALL(CCairo, pango_layout_set_font_description)
#define pango_layout_set_text CLOADER_CALL(CCairo, pango_layout_set_text)
#define pango_layout_set_width CLOADER_CALL(CCairo, pango_layout_set_width)
#define pango_layout_set_wrap CLOADER_CALL(CCairo, pango_layout_set_wrap)

#endif
