package lib

func Vendored() {}
