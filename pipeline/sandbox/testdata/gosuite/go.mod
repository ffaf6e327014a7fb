module example.com/gosuite

go 1.21
