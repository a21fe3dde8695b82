// Placeholder until the benchmark lands.
print("EmulatorBench: not written yet")
