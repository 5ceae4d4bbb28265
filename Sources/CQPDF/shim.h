// qpdf's C API (libqpdf), with which ezreport completes the tagged PDFs Cairo 1.16 writes: the
// catalog's /Lang and /ViewerPreferences, figures' /Alt, artifacts. Only includes.
#include <qpdf/qpdf-c.h>
