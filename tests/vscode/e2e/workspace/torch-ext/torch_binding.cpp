// The binding is not what this test looks at; the build compiles the CUDA sources only.
