// Cairo (PNG and PDF surfaces) and Pango (text layout) for ezreport's charts and PDF statements;
// fontconfig, FreeType and Pango's fontconfig font map for the font sets ezreport sets up itself
// (FontConfiguration). Only includes.
#include <cairo.h>
#include <cairo-pdf.h>
#include <ft2build.h>
#include <freetype/freetype.h>
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
