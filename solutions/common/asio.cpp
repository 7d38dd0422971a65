// Asio's implementation, compiled once for the whole course.
// Every target defines BOOST_ASIO_SEPARATE_COMPILATION (see CMakeLists.txt), so
// the other files include only declarations and build in a fraction of the time.
#include <boost/asio/impl/src.hpp>
