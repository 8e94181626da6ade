
?
m.protop")
M
x (2.p.M.XEntry
XEntry:8bproto3