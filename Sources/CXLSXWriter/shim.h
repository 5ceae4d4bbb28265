// libxlsxwriter, which writes ezreport's XLSX workbooks.
#include <xlsxwriter.h>
