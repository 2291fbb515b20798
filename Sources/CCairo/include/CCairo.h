// CCairo: the thin C layer between cravey and cairo with pango (vector PDF pages, laid-out text).
//
// Why a shim: the report's PDF is drawn in cravey's own process rather than printed by a browser,
// so that making it starts no process, opens no socket and writes nothing but the file asked
// for. Here one document holds the PDF surface, its drawing context and pango's fonts; the PDF
// is written into memory (the caller writes the file); fontconfig is given a configuration of its
// own whose cache folder is the one the caller names, so a font cache it may write never lands
// in the person's home. Errors come back as negative errno values with cairo's words in
// CCairo_document_error(). Every function is prefixed CCairo_.
#ifndef CCAIRO_H
#define CCAIRO_H

#include <stddef.h>

/// A PDF being drawn: its pages, the current colour and path, its fonts.
typedef struct CCairo_document CCairo_document;

/// Starts a PDF whose pages are `width` × `height` points, titled `title` (its metadata), with
/// fontconfig's cache in `font_cache` (an existing private folder). Returns 0 or -ENOMEM / -EIO
/// (fonts or surface could not be made).
int CCairo_document_open(double width, double height, const char *title, const char *font_cache,
                         CCairo_document **out);

/// Ends the current page and starts the next one.
void CCairo_document_page(CCairo_document *document);

/// The colour of what is filled, stroked or written next (each part 0–1).
void CCairo_document_color(CCairo_document *document, double red, double green, double blue);

/// Adds a rectangle to the path, its corners rounded by `radius` (0: square).
void CCairo_document_rectangle(CCairo_document *document, double x, double y, double width, double height,
                               double radius);

/// Adds a circle to the path.
void CCairo_document_circle(CCairo_document *document, double x, double y, double radius);

/// Starts a line at a point, or continues it to a point.
void CCairo_document_move_to(CCairo_document *document, double x, double y);
void CCairo_document_line_to(CCairo_document *document, double x, double y);

/// Fills the path, or strokes it `width` points wide (round caps and joins); either clears it.
void CCairo_document_fill(CCairo_document *document);
void CCairo_document_stroke(CCairo_document *document, double width);

/// Lays out UTF-8 `text` (plain, no markup) in `font` (a pango font description: "Sans Bold 10"),
/// wrapped at `width` points (0: one line), aligned by `align` (0 left, 1 centre, 2 right, within
/// `width`), its top left corner at (`x`, `y`); draws it when `draw`, and gives the size it
/// takes either way. Returns 0 or -EINVAL for text that is not UTF-8.
int CCairo_document_text(CCairo_document *document, const char *text, const char *font, double x, double y,
                         double width, int align, int draw, double *out_width, double *out_height);

/// Finishes the PDF: its bytes, valid until the document is freed. Returns 0 or -EIO / -ENOMEM.
int CCairo_document_finish(CCairo_document *document, const unsigned char **bytes, size_t *length);

/// What went wrong last, in cairo's words ("" when nothing did).
const char *CCairo_document_error(CCairo_document *document);

void CCairo_document_free(CCairo_document *document);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CCairo_load_message().
int CCairo_load(void);
const char *CCairo_load_message(void);

#endif
