from grid import Grid
import lib
w = lib.widen
print(w(Grid([1])))
