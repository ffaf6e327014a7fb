module example.com/wrr

go 1.21
