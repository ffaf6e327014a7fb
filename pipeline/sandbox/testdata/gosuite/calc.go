// Package gosuite is the sample of sandbox's subtest tests: a suite of
// methods run as subtests of one runner, as grpc-go's grpctest runs them,
// a table-driven test, and a test that fails outside its subtests. The
// test copies it and writes calc_impl.go for each side.
package gosuite
