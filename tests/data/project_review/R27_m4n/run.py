import collections
from model import Base, Learned

Table = collections.namedtuple("Table", "data index")


def main():
    b = Base()
    b.scale = Table([1.0, 2.0], [0, 1])
    print(Learned().summary(), b.summary())


main()
