// Placeholder until the shared chapter driver lands.
int main() { return 0; }
