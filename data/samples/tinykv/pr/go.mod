module example.com/tinykv

go 1.19
