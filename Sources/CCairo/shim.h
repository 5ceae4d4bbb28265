// Cairo (PNG and PDF surfaces) and Pango (text layout) for ezreport's charts and PDF statements.
// Only includes.
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
