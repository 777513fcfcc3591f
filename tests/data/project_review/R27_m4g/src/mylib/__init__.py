from mylib.base import Base, Learned
