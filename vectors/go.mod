module github.com/attest-harness/attest-harness/vectors

go 1.16
