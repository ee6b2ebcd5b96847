// lxcxx: C++ built with the host's g++ -static: iostream, exceptions,
// std::vector, std::map, a static constructor, a file through fstream.
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct Early {
    int value;
    Early() : value(42) {}
};
static Early early;

static int thrower(int depth)
{
    if (depth == 0)
        throw std::runtime_error("deep throw");
    return thrower(depth - 1) + 1;
}

int main()
{
    std::vector<long> v;
    for (long i = 0; i < 100000; i++)
        v.push_back(i * 3);
    long sum = 0;
    for (long x : v)
        sum += x;
    std::map<std::string, int> words;
    for (const char *w : { "node", "kernel", "node", "yod", "node" })
        words[w]++;
    try {
        thrower(20);
        std::cout << "no exception" << std::endl;
    } catch (const std::exception &e) {
        std::cout << "caught: " << e.what() << std::endl;
    }
    std::ofstream("lxcxx.out") << "sum " << sum << "\n";
    std::ifstream in("lxcxx.out");
    std::string s;
    std::getline(in, s);
    std::cout << "static " << early.value << ", " << s << ", node x"
              << words["node"] << ", " << words.size() << " words" << std::endl;
    std::cerr << "lxcxx: cerr" << std::endl;
    std::cout << "lxcxx: OK" << std::endl;
    return 0;
}
