print("ezreport")
