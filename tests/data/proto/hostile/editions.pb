
3
editions.protop"
M
a (Rabeditionspè