module example.org/envfile

go 1.19

require github.com/google/go-cmp v0.6.0
