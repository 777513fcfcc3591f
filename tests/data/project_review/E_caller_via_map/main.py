from grid import Grid
from lib import widen
print(list(map(widen, [Grid([1])])))
