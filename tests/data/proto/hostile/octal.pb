
*
m.protop"
M
b (:\777bproto2