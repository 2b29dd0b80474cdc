import StudySite
print("scrollstudy")
