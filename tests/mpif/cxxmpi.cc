// cxxmpi.cc: MPI from C++ through mpi.h (built by tools/mpicxx): the
// standard library, exceptions, RAII around MPI objects, a lambda as a
// user op, and the f2c/c2f handle conversions C and C++ share with
// Fortran.  Rank 0 prints "PASS mpif.cxxmpi.nSIZE.PART" when no rank
// failed; expected values are computed here.
#include <mpi.h>

#include <iostream>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int me, np, fails;

void check(bool ok, const std::string &what)
{
    if (!ok) {
        ++fails;
        std::cerr << "rank " << me << ": check failed: " << what << '\n';
    }
}

void report(const std::string &part)
{
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        std::cout << (all ? "FAIL" : "PASS") << " mpif.cxxmpi.n" << np << '.'
                  << part << std::endl;
    fails = 0;
}

// A communicator that frees itself; an MPI error becomes an exception.
class Comm {
public:
    Comm(MPI_Comm parent, int color, int key)
    {
        must(MPI_Comm_split(parent, color, key, &c_), "MPI_Comm_split");
    }
    ~Comm() { MPI_Comm_free(&c_); }
    Comm(const Comm &) = delete;
    Comm &operator=(const Comm &) = delete;
    int size() const { int n; MPI_Comm_size(c_, &n); return n; }
    int rank() const { int r; MPI_Comm_rank(c_, &r); return r; }
    MPI_Comm get() const { return c_; }
    static void must(int rc, const char *what)
    {
        if (rc != MPI_SUCCESS)
            throw std::runtime_error(std::string(what) + " failed");
    }
private:
    MPI_Comm c_;
};

void p2p_coll()
{
    std::vector<double> out(64), in(64, -1.0);
    std::iota(out.begin(), out.end(), me * 100.0);
    int next = (me + 1) % np, prev = (me + np - 1) % np;
    MPI_Status st;
    MPI_Sendrecv(out.data(), 64, MPI_DOUBLE, next, 1, in.data(), 64,
                 MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &st);
    check(st.MPI_SOURCE == prev && in[63] == prev * 100.0 + 63, "ring");

    std::vector<int> all(np);
    int mine = me * me;
    MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < np; r++)
        check(all[r] == r * r, "allgather");

    // a captureless lambda is a C function pointer: a user op
    MPI_Op op;
    MPI_Op_create([](void *a, void *b, int *n, MPI_Datatype *) {
                      auto *x = static_cast<int *>(a), *y = static_cast<int *>(b);
                      for (int i = 0; i < *n; i++)
                          y[i] = x[i] > y[i] ? x[i] : y[i];
                  }, 1, &op);
    int best = 0, v = (me * 7) % (np + 3);
    MPI_Allreduce(&v, &best, 1, MPI_INT, op, MPI_COMM_WORLD);
    int want = 0;
    for (int r = 0; r < np; r++)
        want = std::max(want, (r * 7) % (np + 3));
    check(best == want, "lambda op");
    MPI_Op_free(&op);
    report("p2p-coll");
}

void raii_exceptions()
{
    std::map<int, int> sizes;
    {
        Comm half(MPI_COMM_WORLD, me % 2, me);
        sizes[me % 2] = half.size();
        check(half.rank() == me / 2, "split rank");
        int sum = 0;
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, half.get());
        int want = 0;
        for (int r = me % 2; r < np; r += 2)
            want += r;
        check(sum == want, "sum in the split");
    }
    check(sizes[me % 2] == (np - me % 2 + 1) / 2, "split size");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bool thrown = false;
    try {
        Comm::must(MPI_Send(&me, 1, MPI_INT, np + 3, 0, MPI_COMM_WORLD),
                   "MPI_Send to a rank that is not there");
    } catch (const std::runtime_error &e) {
        thrown = std::string(e.what()).find("MPI_Send") == 0;
    }
    check(thrown, "error code became an exception");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    report("raii-exceptions");
}

// The conversions: the same index every time, the object back, the
// predefined handles at mpif.h's values, freed indices reused.
void handles()
{
    check(MPI_Comm_c2f(MPI_COMM_WORLD) == 1, "MPI_COMM_WORLD is 1");
    check(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_SELF)) == MPI_COMM_SELF,
          "comm round trip");
    check(MPI_Comm_c2f(MPI_COMM_NULL) == 0, "MPI_COMM_NULL is 0");
    check(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE, "type");
    check(MPI_Comm_f2c(123456) == MPI_COMM_NULL, "an unknown index");
    MPI_Datatype t;
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Fint f = MPI_Type_c2f(t);
    check(f > 0 && MPI_Type_c2f(t) == f && MPI_Type_f2c(f) == t,
          "a new type keeps its index");
    MPI_Status s{}, s2{};
    s.MPI_SOURCE = 3, s.MPI_TAG = 4, s.MPI_ERROR = 5;
    std::vector<MPI_Fint> fs(sizeof(MPI_Status) / sizeof(MPI_Fint));
    MPI_Status_c2f(&s, fs.data());
    MPI_Status_f2c(fs.data(), &s2);
    check(fs[0] == 3 && fs[1] == 4 && fs[2] == 5 && s2.MPI_TAG == 4,
          "status conversion");
    MPI_Type_free(&t);
    report("handles");
}

} // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    p2p_coll();
    raii_exceptions();
    handles();
    MPI_Finalize();
    return 0;
}
