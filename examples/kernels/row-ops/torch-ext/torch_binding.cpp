// Binding omitted in this example; see kernels/ for complete projects.
