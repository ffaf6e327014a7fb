package src

var Generated = 1
